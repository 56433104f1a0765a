/*
 * CBristleCleanup: removes the temporary files of unfinished atomic writes when the process
 * is interrupted (SIGINT, SIGTERM, SIGHUP), so that Ctrl-C during an export leaves no hidden
 * `.NAME.tmp-XXXXXX` file behind.
 *
 * A signal handler may only call async-signal-safe functions, and Swift code is not safe
 * there, so the registry and the handler are C: a fixed table of paths, each slot claimed
 * and released with atomics.
 */
#ifndef CBRISTLECLEANUP_H
#define CBRISTLECLEANUP_H

#ifdef __cplusplus
extern "C" {
#endif

/* The number of files that can be registered at once (one per concurrent write). */
#define CBristleCleanup_SLOTS 64

/*
 * Registers `path` (absolute or relative to the current directory, which must not change
 * meanwhile) to be unlinked if SIGINT, SIGTERM or SIGHUP arrives before
 * CBristleCleanup_unregister. The first call installs the handlers, for each signal whose
 * action is still the default one (a handler of the application, or an ignored signal, is
 * left alone). The handler unlinks every registered path, restores the default action and
 * raises the signal again, so the process still ends by that signal.
 *
 * Returns the slot, or -1 when the table is full or the path too long (the file is then not
 * removed on a signal; nothing else changes).
 */
int CBristleCleanup_register(const char *path);

/* Forgets the file of `slot` (a value returned by CBristleCleanup_register; -1 is ignored). */
void CBristleCleanup_unregister(int slot);

#ifdef __cplusplus
}
#endif

#endif /* CBRISTLECLEANUP_H */
