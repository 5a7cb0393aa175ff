package vm

import "golang.org/x/sys/unix"

// frozenFile makes a file in memory of size bytes holding b, and returns
// its descriptor.
func frozenFile(b []byte, size int) (int, error) {
	fd, err := unix.MemfdCreate("augur-object", unix.MFD_CLOEXEC)
	if err != nil {
		return -1, err
	}
	if err := unix.Ftruncate(fd, int64(size)); err != nil {
		unix.Close(fd)
		return -1, err
	}
	for off := 0; off < len(b); {
		n, err := unix.Pwrite(fd, b[off:], int64(off))
		if err != nil {
			unix.Close(fd)
			return -1, err
		}
		off += n
	}
	return fd, nil
}

// mapPrivate maps size bytes of the file fd privately: writes copy pages.
func mapPrivate(fd, size int) ([]byte, error) {
	return unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
}

func unmap(mem []byte) { unix.Munmap(mem) }

func closeFile(fd int) { unix.Close(fd) }
