/* benchlog run: not built yet; answers with one line and exit status 2. */
#include "commands.h"

int cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cmd_not_built("run", "runner");
}
