//go:build !unix

package main

import "errors"

// mkfifo makes a named pipe, where the system has them (not here).
func mkfifo(string) error { return errors.ErrUnsupported }
