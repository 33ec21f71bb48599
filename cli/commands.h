/* The commands of SPEC.md's command line. Each takes the arguments after its name
 * (argv[0] is the command name) and returns the exit status: 0 done, 1 input errors,
 * 2 usage error. */
#ifndef BL_COMMANDS_H
#define BL_COMMANDS_H

#include <stddef.h>

int cmd_parse(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_chart(int argc, char **argv);
int cmd_xlsx(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_relabel(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_compare(int argc, char **argv);

int cmd_completion(int argc, char **argv);
/* The hidden helper the completion scripts call: benchlog __complete WORD... */
int cmd_complete(int argc, char **argv);

/* The command table of main.c, for completion: its size, a name, and running one. */
size_t bl_command_count(void);
const char *bl_command_name(size_t i);
int bl_command_call(size_t i, int argc, char **argv);

/* For a stage that is not built yet: one clear line, exit 2. */
int cmd_not_built(const char *command, const char *what);

#endif
