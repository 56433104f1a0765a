/*
 * CBristleCleanup: see include/CBristleCleanup.h.
 *
 * Slot states: FREE, CLAIMED (a thread is copying a path in), ARMED (the handler removes
 * it). The handler reads only ARMED slots; a path is complete before its slot becomes ARMED
 * (release store), and the handler's acquire load sees it whole.
 */
#define _POSIX_C_SOURCE 200809L
#include "CBristleCleanup.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { FREE = 0, CLAIMED = 1, ARMED = 2 };

static char paths[CBristleCleanup_SLOTS][PATH_MAX];
static atomic_int states[CBristleCleanup_SLOTS];
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static const int signals[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int signal_number) {
    for (int i = 0; i < CBristleCleanup_SLOTS; i++) {
        if (atomic_load_explicit(&states[i], memory_order_acquire) == ARMED) unlink(paths[i]);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    raise(signal_number);
}

static void install(void) {
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction current;
        if (sigaction(signals[i], NULL, &current) != 0) continue;
        if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        for (size_t j = 0; j < sizeof signals / sizeof signals[0]; j++) sigaddset(&action.sa_mask, signals[j]);
        sigaction(signals[i], &action, NULL);
    }
}

int CBristleCleanup_register(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    pthread_once(&installed, install);
    for (int i = 0; i < CBristleCleanup_SLOTS; i++) {
        int expected = FREE;
        if (atomic_compare_exchange_strong(&states[i], &expected, CLAIMED)) {
            memcpy(paths[i], path, length + 1);
            atomic_store_explicit(&states[i], ARMED, memory_order_release);
            return i;
        }
    }
    return -1;
}

void CBristleCleanup_unregister(int slot) {
    if (slot < 0 || slot >= CBristleCleanup_SLOTS) return;
    atomic_store_explicit(&states[slot], FREE, memory_order_release);
}
