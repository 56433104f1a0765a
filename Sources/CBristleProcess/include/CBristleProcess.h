/*
 * CBristleProcess: the two GNU extensions the host needs around child processes, which
 * Swift's Glibc module does not declare (they need _GNU_SOURCE).
 *
 * A descriptor the host opens is inherited by every child started while it is open, unless
 * it is close-on-exec; `mkstemp` followed by `fcntl(FD_CLOEXEC)` leaves a moment in which a
 * child started by another thread inherits it. Both functions close that gap.
 */
#ifndef CBRISTLEPROCESS_H
#define CBRISTLEPROCESS_H

#include <spawn.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * `mkostemp(template, O_CLOEXEC)`: creates and opens a unique file from `template` (ending in
 * "XXXXXX", replaced in place), close-on-exec from the start. Returns the descriptor, or -1
 * with errno set.
 */
int CBristleProcess_make_temporary(char *template_path);

/*
 * `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor >= `lowest`
 * before it runs, whether or not it is close-on-exec (after the actions added before this
 * one). Returns 0, or an error number.
 */
int CBristleProcess_close_from(posix_spawn_file_actions_t *actions, int lowest);

#ifdef __cplusplus
}
#endif

#endif /* CBRISTLEPROCESS_H */
