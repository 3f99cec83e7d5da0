// The C allocator's settings, which Swift's Glibc module leaves out (mallopt is in <malloc.h>).
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

// Serves every block of `bytes` or more from a mapping of its own, given back to the system
// when freed; 0 where the C library has no such setting (it is glibc's), 1 once set.
static inline int gtio_malloc_set_mmap_threshold(int bytes) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}
