#ifndef TYPIST_CTESTSPAWN_SHIM_H
#define TYPIST_CTESTSPAWN_SHIM_H

/* For the tests' process spawning (FaultServer's CleanSpawn). A child started while other threads
   hold pipes open must not inherit their write ends, or their readers never see the end of output.
   glibc (2.34 and later) closes them with posix_spawn_file_actions_addclosefrom_np, a GNU extension
   that <spawn.h> declares only under _GNU_SOURCE, which would give these system headers other
   definitions than the ones Swift's modules hold: the one declaration is written here. */
#include <spawn.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
#endif

/* Changes the child's directory to `path` before it runs. Returns 0, or an error number; without
   glibc 2.29 it does nothing and returns -1. */
static inline int typist_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return -1;
#endif
}

/* Closes every descriptor from `lowest` up in the child. Returns 0, or an error number; without
   glibc 2.34 it does nothing and returns -1. */
static inline int typist_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return -1;
#endif
}

#endif
