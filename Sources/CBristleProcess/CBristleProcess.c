#define _GNU_SOURCE
#include "CBristleProcess.h"

#include <fcntl.h>
#include <stdlib.h>

int CBristleProcess_make_temporary(char *template_path) { return mkostemp(template_path, O_CLOEXEC); }

int CBristleProcess_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
