#include "ops/heap.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tilecrush::server {

void trim_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace tilecrush::server
