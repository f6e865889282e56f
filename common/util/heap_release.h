// ReleaseFreeHeap: hands the allocator's free pages back to the kernel.
//
// A table load decodes its metastore rows and builds its listings in bulk
// and frees most of that once the state is built; glibc keeps such pages
// resident (in every thread's arena), so without a release the process RSS
// shows the peak of the largest load rather than what the catalog holds.
// malloc_trim(0) returns every wholly free page of every arena (madvise),
// keeping the live data where it is. It walks the free lists, so callers
// use it after large bulk work, not per request.
//
// Thread-safety: thread-safe (the allocator locks each arena in turn).
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ics {

inline void ReleaseFreeHeap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

// For a process that holds a large, long-lived heap built in bulk (the
// catalog): turns off glibc's fast bins, which keep freed small chunks
// apart instead of merging them with their free neighbours, so the pages
// where a load's temporaries lay between long-lived objects become whole
// free pages that ReleaseFreeHeap can return. Call once, at start, before
// other threads allocate.
inline void ConfigureHeapForLongLivedState() {
#if defined(__GLIBC__)
  mallopt(M_MXFAST, 0);
#endif
}

}  // namespace ics
