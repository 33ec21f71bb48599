/* benchlog completion bash|zsh: the shell scripts. They are thin: at each TAB they hand the
 * words to `benchlog __complete` (complete.c), which answers from the command table, the
 * option tables and the store, so the scripts never fall behind a new command or option. */
#include "args.h"
#include "commands.h"
#include "options.h"
#include <stdio.h>
#include <string.h>

/* bash splits KEY=VALUE at '=' (COMP_WORDBREAKS): the words are joined back before they go
 * to the helper, and the candidates lose the part bash does not replace. */
static const char bash_script[] =
    "# bash completion for benchlog                                 -*- shell-script -*-\n"
    "# (made by 'benchlog completion bash'; install as\n"
    "# $PREFIX/share/bash-completion/completions/benchlog, or source it)\n"
    "_benchlog() {\n"
    "    local i w words=() glue=0 cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
    "    for ((i = 1; i <= COMP_CWORD; i++)); do\n"
    "        w=\"${COMP_WORDS[i]}\"\n"
    "        if (( glue )) || [[ $w == = && ${#words[@]} -gt 0 ]]; then\n"
    "            words[${#words[@]}-1]+=\"$w\"\n"
    "        else\n"
    "            words+=(\"$w\")\n"
    "        fi\n"
    "        [[ $w == = ]] && glue=1 || glue=0\n"
    "    done\n"
    "    local full=\"${words[${#words[@]}-1]}\"\n"
    "    local keep=\"${full%\"$cur\"}\"\n"
    "    local out\n"
    "    out=$(\"${COMP_WORDS[0]}\" __complete \"${words[@]}\" 2>/dev/null) || return 0\n"
    "    local directive=\"${out##*:}\" line\n"
    "    out=\"${out%:*}\"\n"
    "    COMPREPLY=()\n"
    "    if (( directive & 1 )); then\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
    "        return 0\n"
    "    fi\n"
    "    if (( directive & 2 )); then\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
    "        return 0\n"
    "    fi\n"
    "    (( directive & 4 )) && compopt -o nospace 2>/dev/null\n"
    "    while IFS= read -r line; do\n"
    "        [[ -n $line ]] && COMPREPLY+=(\"${line#\"$keep\"}\")\n"
    "    done <<< \"$out\"\n"
    "    return 0\n"
    "}\n"
    "complete -F _benchlog benchlog\n";

static const char zsh_script[] =
    "#compdef benchlog\n"
    "# zsh completion for benchlog (made by 'benchlog completion zsh'; install as\n"
    "# $PREFIX/share/zsh/vendor-completions/_benchlog, or source it after compinit)\n"
    "_benchlog() {\n"
    "    local out directive\n"
    "    local -a lines cands\n"
    "    out=$(\"${words[1]}\" __complete \"${(@)words[2,CURRENT]}\" 2>/dev/null) || return 1\n"
    "    lines=(\"${(@f)out}\")\n"
    "    directive=${lines[-1]#:}\n"
    "    cands=(\"${(@)lines[1,-2]}\")\n"
    "    if (( directive & 1 )); then _files; return; fi\n"
    "    if (( directive & 2 )); then _files -/; return; fi\n"
    "    if (( directive & 4 )); then\n"
    "        compadd -S '' -- \"${cands[@]}\"\n"
    "    else\n"
    "        compadd -- \"${cands[@]}\"\n"
    "    fi\n"
    "}\n"
    "if [ \"$funcstack[1]\" = \"_benchlog\" ]; then\n"
    "    _benchlog \"$@\"\n"
    "else\n"
    "    compdef _benchlog benchlog\n"
    "fi\n";

static const char usage[] =
    "Usage: benchlog completion bash|zsh\n\n"
    "Prints the shell's completion script: commands, options, chart kinds, formats,\n"
    "--metric names, run IDs and label keys and values of the store. make install puts\n"
    "them where bash-completion and zsh find them; to try one in a shell:\n"
    "  source <(benchlog completion bash)\n";

int cmd_completion(int argc, char **argv)
{
    const bl_option opts[] = {BL_OPT_END()};
    static const bl_command_help h = {"completion", usage, NULL, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if (n != 1)
        return bl_usage_error("completion", "which shell? bash or zsh");
    if (strcmp(argv[0], "bash") == 0)
        fputs(bash_script, stdout);
    else if (strcmp(argv[0], "zsh") == 0)
        fputs(zsh_script, stdout);
    else
        return bl_usage_error("completion", "no completion for '%s': bash or zsh", argv[0]);
    return fflush(stdout) == 0 ? 0 : 1;
}
