// Giving freed memory back to the system. glibc's allocator keeps what a
// process frees in its arenas for later allocations; after a busy hour
// that is most of the peak, held for good. trim_heap() asks it to return
// the free pages of every arena (malloc_trim), which costs a walk of the
// free lists: call it now and then, off the network threads.
//
// Thread safety: may be called from any thread.
#pragma once

namespace tilecrush::server {

// Returns free heap memory to the system where the C library allows it
// (glibc); does nothing elsewhere.
void trim_heap();

}  // namespace tilecrush::server
