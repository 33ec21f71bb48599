/* The global options, given before the command as git takes them: --db FILE, -C DIR,
 * --color[=WHEN], --no-color, -q. They become the command's environment, so that every
 * command (and every command added later) sees them without a change to its signature:
 * --db FILE is $BENCHLOG_DB for the command, hence a command's own --db wins over it;
 * --color is $BENCHLOG_COLOR, -q is $BENCHLOG_QUIET; -C DIR changes folder first, so that
 * paths after it are read from DIR. --color, --no-color and -q/--quiet are also taken after
 * the command by the option layer (options.c) when the command has no option of that name. */
#ifndef BL_CLI_GLOBAL_H
#define BL_CLI_GLOBAL_H

#include "options.h"
#include <stdio.h>

/* Reads the global options at argv[1..); returns the index of the command's name in argv
 * (argc when there is none), or -1 with *status set (2: usage error, printed). */
int bl_global_options(int argc, char **argv, int *status);

/* The global options, and those a command takes after its name too (--color, --no-color, -q). */
extern const bl_option bl_global_before[];
extern const bl_option bl_global_after[];

/* -q: only errors on stderr (no warnings, no notes: say.h), and no confirmation lines
 * ("imported ...", "stored ...") on stdout. */
int bl_quiet(void);
/* Whether text written to f is coloured: --color=always, else never with --color=never or
 * $NO_COLOR set (non-empty), else when f is a terminal and $TERM is not "dumb". */
int bl_color(FILE *f);

/* The help's lines about the global options, for benchlog --help. */
void bl_global_help(FILE *f);

#endif
