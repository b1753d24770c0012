//go:build js && wasm

package jsbridge

import (
	"runtime"
	"runtime/debug"

	"github.com/hack-pad/safejs"

	"ntkrf/internal/check"
)

// Register installs globalThis[name] = { call, ops } where
// call(op, argsJSON, arrays, onProgress, bytes, link) returns a Promise of
// { json, arrays } (link: see linkPeer). The Func lives as long as the program.
func Register(name string) error {
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		return safejs.Unsafe(invoke(args))
	})
	if err != nil {
		return err
	}
	object, err := safejs.Global().Get("Object")
	if err != nil {
		return err
	}
	ns, err := object.New()
	if err != nil {
		return err
	}
	opNames := make([]any, 0, len(ops))
	for _, o := range Ops() {
		opNames = append(opNames, o)
	}
	if err := ns.Set("call", fn.Value()); err != nil {
		return err
	}
	if err := ns.Set("ops", opNames); err != nil {
		return err
	}
	if err := ns.Set("schema", schemaJSON); err != nil {
		return err
	}
	if err := ns.Set("core", coreJSON); err != nil {
		return err
	}
	return safejs.Global().Set(name, ns)
}

// invoke runs one call and returns its Promise, settled, or pending while
// a call given a link to another instance (link) waits for that
// instance's messages: such a call runs on a goroutine of its own, which
// yields to JavaScript's event loop while it waits.
func invoke(args []safejs.Value) safejs.Value {
	var resolve, reject safejs.Value
	executor, err := safejs.FuncOf(func(_ safejs.Value, a []safejs.Value) any {
		resolve, reject = a[0], a[1]
		return nil
	})
	if err != nil {
		return safejs.Undefined()
	}
	defer executor.Release()
	promiseClass, _ := safejs.Global().Get("Promise")
	promise, err := promiseClass.New(executor.Value()) // runs the executor now
	if err != nil {
		return safejs.Undefined()
	}
	if _, ok := link(args); ok {
		go settle(resolve, reject, args)
	} else {
		settle(resolve, reject, args)
	}
	return promise
}

// settle runs the call and resolves or rejects with its result. Nothing in
// here may panic past the deferred recover: a panic would stop the Go
// program and every later call would fail.
func settle(resolve, reject safejs.Value, args []safejs.Value) {
	defer func() {
		if r := recover(); r != nil {
			rejectWith(reject, check.New(check.Internal, "", "ntkrf internal error (please report): %v\n%s", r, debug.Stack()))
		}
	}()
	result, err := run(args)
	if err != nil {
		rejectWith(reject, err)
		return
	}
	_, _ = resolve.Invoke(result)
}

// link is a call's sixth argument, a link to another instance (see
// linkPeer), when it has one.
func link(args []safejs.Value) (safejs.Value, bool) {
	if len(args) > 5 && args[5].Type() == safejs.TypeObject {
		return args[5], true
	}
	return safejs.Value{}, false
}

// rejectWith rejects with a plain object {name, code, option, message,
// fault, advice}:
// the worker rebuilds the error on the caller's side, where the class
// must be created anyway (errors do not cross postMessage with their
// fields).
func rejectWith(reject safejs.Value, err error) {
	name, code, option, msg := JSError(err)
	object, _ := safejs.Global().Get("Object")
	e, _ := object.New()
	_ = e.Set("name", name)
	_ = e.Set("code", string(code))
	_ = e.Set("option", option)
	_ = e.Set("message", msg)
	fault, advice := JSAdvice(err)
	_ = e.Set("fault", fault)
	if advice != "" {
		_ = e.Set("advice", advice)
	}
	_, _ = reject.Invoke(e)
}

func run(args []safejs.Value) (safejs.Value, error) {
	if len(args) < 3 {
		return safejs.Value{}, typeErr("call(op, argsJSON, arrays, onProgress?) needs at least 3 arguments, got %d", len(args))
	}
	op, err := args[0].String()
	if err != nil {
		return safejs.Value{}, typeErr("operation name must be a string")
	}
	argsJSON, err := args[1].String()
	if err != nil {
		return safejs.Value{}, typeErr("%s: options must be a JSON string", op)
	}
	arrays, err := arraysFromJS(op, args[2])
	if err != nil {
		return safejs.Value{}, err
	}
	var progress Progress
	if len(args) > 3 && args[3].Type() == safejs.TypeFunction {
		cb := args[3]
		progress = func(done, total int, stage string) { _, _ = cb.Invoke(done, total, stage) }
	}
	var raw []byte
	if len(args) > 4 && !args[4].IsUndefined() && !args[4].IsNull() {
		if raw, err = bytesFromJS(op, args[4]); err != nil {
			return safejs.Value{}, err
		}
	}
	in := Input{Arrays: arrays, Bytes: raw}
	if l, ok := link(args); ok {
		peer, err := newLinkPeer(l)
		if err != nil {
			return safejs.Value{}, err
		}
		defer peer.close()
		in.Peer = peer
	}
	resJSON, out, err := Dispatch(op, []byte(argsJSON), in, progress)
	if err != nil {
		return safejs.Value{}, err
	}
	jsArrays, err := arraysToJS(out)
	if err != nil {
		return safejs.Value{}, err
	}
	// Go collects when its heap has doubled, and a WebAssembly memory never
	// shrinks: after a call that moved tens of MB through this instance
	// (e.g. all rows of X to fit the preprocessing), collect now so that
	// the next calls reuse that memory instead of growing the instance.
	moved := len(raw)
	for _, a := range append(arrays, out...) {
		moved += 8 * len(a)
	}
	arrays, raw, out = nil, nil, nil
	if moved >= gcAfterBytes {
		runtime.GC()
	}
	object, _ := safejs.Global().Get("Object")
	res, err := object.New()
	if err != nil {
		return safejs.Value{}, err
	}
	if err := res.Set("json", string(resJSON)); err != nil {
		return safejs.Value{}, err
	}
	if err := res.Set("arrays", jsArrays); err != nil {
		return safejs.Value{}, err
	}
	return res, nil
}

// gcAfterBytes is the amount of data moved by one call beyond which the
// bridge runs the garbage collector before returning.
const gcAfterBytes = 32 << 20

// arraysFromJS copies an Array of Float64Array into Go with one bulk copy each.
func arraysFromJS(op string, list safejs.Value) ([][]float64, error) {
	n, err := list.Length()
	if err != nil {
		return nil, typeErr("%s: arrays must be an Array of Float64Array", op)
	}
	f64, _ := safejs.Global().Get("Float64Array")
	u8, _ := safejs.Global().Get("Uint8Array")
	out := make([][]float64, n)
	for i := range out {
		a, err := list.Index(i)
		if err != nil {
			return nil, err
		}
		if ok, _ := a.InstanceOf(f64); !ok {
			return nil, typeErr("%s: array %d is not a Float64Array", op, i)
		}
		length, err := a.Length()
		if err != nil {
			return nil, err
		}
		buf, _ := a.Get("buffer")
		off, _ := a.Get("byteOffset")
		view, err := u8.New(buf, off, length*8)
		if err != nil {
			return nil, typeErr("%s: array %d cannot be read (detached buffer?)", op, i)
		}
		out[i] = make([]float64, length)
		if _, err := safejs.CopyBytesToGo(bytesOf(out[i]), view); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bytesFromJS copies a Uint8Array into Go.
func bytesFromJS(op string, v safejs.Value) ([]byte, error) {
	u8, _ := safejs.Global().Get("Uint8Array")
	if ok, _ := v.InstanceOf(u8); !ok {
		return nil, typeErr("%s: input bytes must be a Uint8Array", op)
	}
	n, err := v.Length()
	if err != nil {
		return nil, err
	}
	out := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(out, v); err != nil {
		return nil, err
	}
	return out, nil
}

// arraysToJS returns a JS Array of new Float64Arrays holding copies of out,
// owned by JavaScript so they can be transferred between threads.
func arraysToJS(out [][]float64) (safejs.Value, error) {
	arrayClass, _ := safejs.Global().Get("Array")
	arr, err := arrayClass.New()
	if err != nil {
		return safejs.Value{}, err
	}
	f64, _ := safejs.Global().Get("Float64Array")
	u8, _ := safejs.Global().Get("Uint8Array")
	for i, a := range out {
		ta, err := f64.New(len(a))
		if err != nil {
			return safejs.Value{}, check.New(check.TooLarge, "", "cannot allocate a result of %d numbers in JavaScript: %v", len(a), err)
		}
		buf, _ := ta.Get("buffer")
		view, err := u8.New(buf)
		if err != nil {
			return safejs.Value{}, err
		}
		if _, err := safejs.CopyBytesToJS(view, bytesOf(a)); err != nil {
			return safejs.Value{}, err
		}
		if err := arr.SetIndex(i, ta); err != nil {
			return safejs.Value{}, err
		}
	}
	return arr, nil
}
