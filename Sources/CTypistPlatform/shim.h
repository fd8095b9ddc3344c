#ifndef TYPIST_CPLATFORM_SHIM_H
#define TYPIST_CPLATFORM_SHIM_H

#include <stdlib.h>

/* glibc's malloc tuning (mallopt lives in <malloc.h>, which Swift's Glibc module does not bring).
   One arena, and a heap that grows top_pad bytes at a time: threads other than the main one
   otherwise get arenas that grow a page at a time, one mprotect call each. Returns 1 when both
   settings took; 0 elsewhere, where it does nothing. */
#ifdef __GLIBC__
#include <malloc.h>
static inline int typist_tune_malloc(int top_pad) {
    return mallopt(M_ARENA_MAX, 1) == 1 && mallopt(M_TOP_PAD, top_pad) == 1;
}
#else
static inline int typist_tune_malloc(int top_pad) {
    (void)top_pad;
    return 0;
}
#endif

#endif
