//go:build linux

package server

import (
	"net"
	"syscall"
	"unsafe"
)

// unreadBytes is how many bytes the kernel holds for nc that have not been
// read yet (FIONREAD); 0 when it cannot tell.
func unreadBytes(nc net.Conn) int64 {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	var n int32
	_ = rc.Control(func(fd uintptr) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
			n = 0
		}
	})
	return int64(n)
}
