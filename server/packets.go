package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// maxPayload is the largest payload of one protocol packet; a longer one
// is split, and a packet of exactly this length is followed by another.
const maxPayload = 1<<24 - 1

// defaultMaxPacket bounds a command when nothing else does; a connection
// takes the engine's max_allowed_packet. A client sending more is
// disconnected with 1153, as MySQL does, before the server allocates it.
const defaultMaxPacket = 64 << 20

// errPacketTooLarge ends a connection whose client sent more than
// maxPacket bytes in one command.
var errPacketTooLarge = errors.New("got a packet bigger than 'max_allowed_packet' bytes")

// packetConn frames MySQL protocol packets over a socket. Writes are
// buffered and flushed before every read, so a reply of many packets
// (a result set) costs one write system call, not one per row. Only the
// connection's goroutine uses it, except watchDisconnect (see there).
type packetConn struct {
	nc        net.Conn
	sock      *socketReader
	r         *bufio.Reader
	w         *bufio.Writer
	seq       uint8
	maxPacket int
}

func newPacketConn(nc net.Conn) *packetConn {
	sock := &socketReader{nc: nc}
	return &packetConn{
		nc:        nc,
		sock:      sock,
		r:         bufio.NewReaderSize(sock, 16<<10),
		w:         bufio.NewWriterSize(nc, 16<<10),
		maxPacket: defaultMaxPacket,
	}
}

// readPacket flushes pending writes, then reads one (possibly split)
// packet. A sequence number out of order is a protocol error.
func (p *packetConn) readPacket() ([]byte, error) {
	if err := p.flush(); err != nil {
		return nil, err
	}
	var payload []byte
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(p.r, hdr[:]); err != nil {
			return nil, err
		}
		n := int(hdr[0]) | int(hdr[1])<<8 | int(hdr[2])<<16
		if hdr[3] != p.seq {
			return nil, fmt.Errorf("packet sequence %d, want %d", hdr[3], p.seq)
		}
		p.seq++
		if len(payload)+n > p.maxPacket {
			return nil, errPacketTooLarge
		}
		start := len(payload)
		payload = append(payload, make([]byte, n)...)
		if _, err := io.ReadFull(p.r, payload[start:]); err != nil {
			return nil, err
		}
		if n < maxPayload {
			return payload, nil
		}
	}
}

// writePacket buffers payload as one packet (split if it is too long).
func (p *packetConn) writePacket(payload []byte) error {
	for {
		n := min(len(payload), maxPayload)
		hdr := [4]byte{byte(n), byte(n >> 8), byte(n >> 16), p.seq}
		p.seq++
		if _, err := p.w.Write(hdr[:]); err != nil {
			return err
		}
		if _, err := p.w.Write(payload[:n]); err != nil {
			return err
		}
		payload = payload[n:]
		if n < maxPayload {
			return nil
		}
	}
}

func (p *packetConn) flush() error { return p.w.Flush() }

// resetSequence starts a new command: its packets count from 0.
func (p *packetConn) resetSequence() { p.seq = 0 }

// socketReader is the socket as the packet reader sees it: bytes that
// watchDisconnect read while a statement ran come first.
type socketReader struct {
	nc      net.Conn
	pending []byte
}

func (s *socketReader) Read(b []byte) (int, error) {
	if len(s.pending) > 0 {
		n := copy(b, s.pending)
		s.pending = s.pending[n:]
		return n, nil
	}
	return s.nc.Read(b)
}

// watchDelay is how long a statement runs before its connection starts
// watching for the client going away: most statements end sooner, and
// then cost no goroutine.
const watchDelay = 20 * time.Millisecond

// watchDisconnect watches the socket while a command runs and calls
// gone if the client closes it (or the connection fails). The returned
// stop ends the watch and must be called before the next read. A client
// that sends more while the statement runs (pipelining) is not gone: what
// it sent is kept for the next read.
//
// The watch reads the socket directly, which is safe because the
// connection's goroutine does not read until stop has returned.
func (p *packetConn) watchDisconnect(gone func()) (stop func()) {
	if p.r.Buffered() > 0 || len(p.sock.pending) > 0 {
		return func() {} // the client already sent its next command
	}
	done := make(chan struct{})
	timer := time.AfterFunc(watchDelay, func() {
		defer close(done)
		var b [512]byte
		n, err := p.nc.Read(b[:])
		p.sock.pending = append(p.sock.pending, b[:n]...)
		var ne net.Error
		if err != nil && !(errors.As(err, &ne) && ne.Timeout()) {
			gone()
		}
	})
	return func() {
		if timer.Stop() {
			return // never started
		}
		_ = p.nc.SetReadDeadline(time.Now())
		<-done
		_ = p.nc.SetReadDeadline(time.Time{})
	}
}
