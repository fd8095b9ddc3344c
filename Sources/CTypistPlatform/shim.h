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

/* Child processes (TypistProcess). A child started while other threads hold pipes open must not
   inherit their write ends, or their readers never see the end of output. glibc closes them with
   posix_spawn_file_actions_addclosefrom_np (2.34) and changes the child's folder with
   posix_spawn_file_actions_addchdir_np (2.29): GNU extensions that <spawn.h> declares only under
   _GNU_SOURCE, which would give these system headers other definitions than the ones Swift's
   modules hold, so the two declarations are written here. */
#include <spawn.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);
#define TYPIST_HAS_CLOSEFROM 1
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
#define TYPIST_HAS_CHDIR 1
#endif
/* macOS declares posix_spawn_file_actions_addchdir_np in <spawn.h> itself (macOS 10.15 and later;
   the package needs macOS 15). It has no addclosefrom_np: there, only close-on-exec descriptors
   close, as below glibc 2.34 (every pipe TypistProcess makes is one). iOS has no posix_spawn. */
#if defined(__APPLE__)
#include <TargetConditionals.h>
#if TARGET_OS_OSX
#define TYPIST_HAS_CHDIR 1
#endif
#endif

/* Changes the child's folder to `path` before it runs. Returns 0, or an error number; -1 where
   the C library cannot (glibc before 2.29). */
static inline int typist_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#ifdef TYPIST_HAS_CHDIR
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return -1;
#endif
}

/* Closes every descriptor from `lowest` up in the child. Returns 0, or an error number; -1 where
   the C library cannot (glibc before 2.34), and then only descriptors marked close-on-exec close. */
static inline int typist_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#ifdef TYPIST_HAS_CLOSEFROM
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return -1;
#endif
}

/* A pipe whose two ends close on exec, so that no child but the one given an end holds it:
   pipe2 (another GNU declaration) where glibc has it, pipe and fcntl elsewhere. 0, or -1 and errno. */
#include <fcntl.h>
#include <unistd.h>
#ifdef __GLIBC__
extern int pipe2(int descriptors[2], int flags);
#endif
static inline int typist_pipe_cloexec(int descriptors[2]) {
#ifdef __GLIBC__
    return pipe2(descriptors, O_CLOEXEC);
#else
    if (pipe(descriptors) != 0) return -1;
    fcntl(descriptors[0], F_SETFD, FD_CLOEXEC);
    fcntl(descriptors[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

#endif
