package proxy

import (
	"net/http/httputil"
	"sync"
)

// copyBufferSize is the size of the buffer a response is passed on
// through: httputil.ReverseProxy's own default.
const copyBufferSize = 32 << 10

// bufferPool lends the reverse proxy its copy buffers, so that passing a
// response on does not allocate 32 KiB each time.
type bufferPool struct{ p sync.Pool }

var _ httputil.BufferPool = (*bufferPool)(nil)

var copyBuffers = &bufferPool{p: sync.Pool{New: func() any { return new([copyBufferSize]byte) }}}

// Get implements httputil.BufferPool.
func (b *bufferPool) Get() []byte { return b.p.Get().(*[copyBufferSize]byte)[:] }

// Put implements httputil.BufferPool.
func (b *bufferPool) Put(buf []byte) {
	if cap(buf) == copyBufferSize {
		b.p.Put((*[copyBufferSize]byte)(buf[:copyBufferSize]))
	}
}
