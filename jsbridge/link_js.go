//go:build js && wasm

package jsbridge

import (
	"github.com/hack-pad/safejs"

	"ntkrf/internal/check"
)

// linkPeer is a linalg.Peer over a link the worker gives a call (its
// sixth argument): {post(Uint8Array), listen(fn), close()} on a
// MessagePort to another worker. Messages arrive by listen's callback,
// which must not block: they queue here until Recv takes them, while the
// call's goroutine waits and JavaScript's event loop runs.
type linkPeer struct {
	link safejs.Value
	fn   safejs.Func
	in   chan []byte
}

// linkQueue bounds the messages queued unread: the shared factorization
// has at most one in flight each way.
const linkQueue = 16

func newLinkPeer(link safejs.Value) (*linkPeer, error) {
	p := &linkPeer{link: link, in: make(chan []byte, linkQueue)}
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		var b []byte
		if len(args) > 0 {
			if n, err := args[0].Length(); err == nil {
				b = make([]byte, n)
				if _, err := safejs.CopyBytesToGo(b, args[0]); err != nil {
					b = nil
				}
			}
		}
		select {
		case p.in <- b:
		default: // never with the protocol's one message in flight; Recv then reads a fault
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.fn = fn
	if _, err := link.Call("listen", fn.Value()); err != nil {
		fn.Release()
		return nil, check.New(check.Type, "", "the link to the other instance cannot be listened to: %v", err)
	}
	return p, nil
}

func (p *linkPeer) Send(b []byte) error {
	u8, _ := safejs.Global().Get("Uint8Array")
	v, err := u8.New(len(b))
	if err != nil {
		return check.New(check.TooLarge, "", "cannot allocate a message of %d bytes in JavaScript: %v", len(b), err)
	}
	if _, err := safejs.CopyBytesToJS(v, b); err != nil {
		return err
	}
	_, err = p.link.Call("post", v)
	return err
}

// Recv waits for the next message; an empty one when it could not be read
// (the protocol reports it).
func (p *linkPeer) Recv() ([]byte, error) {
	return <-p.in, nil
}

func (p *linkPeer) close() {
	_, _ = p.link.Call("close")
	p.fn.Release()
}
