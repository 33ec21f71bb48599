/* benchlog run: measure a target with benchlog's own engine and store the records. */
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../runner/fio_hosts.h"
#include "../runner/job.h"
#include "../runner/runner.h"
#include "../runner/suites.h"
#include "../runner/sweep.h"
#include "../runner/target.h"
#include "args.h"
#include "commands.h"
#include "global.h"
#include "options.h"
#include "say.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one piece of global state: a signal handler can reach nothing else. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static const char usage[] =
    "Usage: benchlog run [OPTIONS] [JOBFILE]\n\n"
    "Measures storage with benchlog's own I/O engine (not fio) and stores the results\n"
    "as records like imported ones (tool=benchlog), so a run compares with old outputs.\n"
    "JOBFILE is a fio job file ([global] and job sections; an option benchlog does not\n"
    "support is an error naming it and its line); without it, --suite (default quick).\n";

static void suites_help(FILE *f)
{
    fprintf(f, "\nSuites:\n");
    for (size_t i = 0; i < bl_suite_count(); i++)
        fprintf(f, "  %-13s %s\n", bl_suite_at(i)->name, bl_suite_at(i)->summary);
    fprintf(f, "\nEngines (ioengine= in a job file, or --engine):\n");
    for (size_t i = 0; i < bl_engine_count(); i++)
        fprintf(f, "  %-13s %s\n", bl_engine_at(i)->name, bl_engine_at(i)->summary);
}

static const char after[] =
    "As CrystalDiskMark does, the cdm suites run each test once to warm up (not counted),\n"
    "then 5 times, and keep the highest MB/s and IOPS and the lowest mean latency.\n"
    "\nA progress line is shown when stdout is a terminal. Ctrl-C stops the test under\n"
    "way: finished tests are stored, the scratch file is removed, exit status 130.\n"
    "Without O_DIRECT support (some tmpfs, network filesystems) the run says so and\n"
    "uses buffered I/O; its records then have direct=false.\n"
    "A run killed with SIGKILL (or a crash, a power cut) cannot remove its scratch file\n"
    ".benchlog-PID-NAME.tmp; 'benchlog run --clean DIR' removes those whose run is gone.\n\n"
    "Example: benchlog run --suite cdm8 --target /mnt/ssd --label disk=ssd1\n";

typedef struct run_args {
    const char *db, *suite, *jobfile, *hosts, *clean, *sweep_spec;
    int allow_overwrite, help_options, sweep_repeats, json;
    bl_run_opts o;
    bl_labels labels;
    bl_sweep sweep;
} run_args;

static int repeats_arg(void *value, const char *arg, char *err, size_t errlen)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*arg && !*end && v >= 1 && v <= 1000) {
        *(int *)value = (int)v;
        return 0;
    }
    snprintf(err, errlen, "--sweep-repeats wants a number from 1 to 1000, not '%s'", arg);
    return -1;
}

static int size_arg(void *value, const char *arg, char *err, size_t errlen)
{
    if (bl_fio_size(arg, value) && *(uint64_t *)value != 0)
        return 0;
    snprintf(err, errlen, "--size wants a size like 512m or 4g, not '%s'", arg);
    return -1;
}

static int runtime_arg(void *value, const char *arg, char *err, size_t errlen)
{
    if (bl_fio_time_s(arg, value) && *(double *)value > 0)
        return 0;
    snprintf(err, errlen, "--runtime wants a time like 10 or 1500ms, not '%s'", arg);
    return -1;
}

static int engine_arg(void *value, const char *arg, char *err, size_t errlen)
{
    if ((*(const bl_engine_ops **)value = bl_engine_find(arg)))
        return 0;
    snprintf(err, errlen,
             "--engine '%s' is not one of benchlog's engines (benchlog run --help lists them)",
             arg);
    return -1;
}

/* Returns 0, or -1 with *status the exit status. */
static int read_args(int argc, char **argv, run_args *a, int *status)
{
    const bl_option opts[] = {
        BL_OPT_STRING(0, "suite", &a->suite, "NAME", "a built-in suite (default quick), see below"),
        BL_OPT_STRING(0, "target", &a->o.target, "PATH",
                      "a folder: a scratch file is made there and deleted afterwards\n"
                      "(default: the current folder); a file or block device is\n"
                      "refused unless --allow-overwrite"),
        BL_OPT_FN(0, "size", &a->o.size, "N",
                  "test file size, fio syntax (512m, 4g); overrides the suite/job", size_arg),
        BL_OPT_FN(0, "runtime", &a->o.runtime_s, "S",
                  "length of each run, fio syntax (10, 1500ms, 2m); in a suite\n"
                  "each of its runs and the warm-up (the pauses stay 5 s)",
                  runtime_arg),
        BL_OPT_FN(0, "engine", &a->o.engine, "E", "run every job with engine E (see Engines below)",
                  engine_arg),
        BL_OPT_BOOL(0, "allow-overwrite", &a->allow_overwrite,
                    "use an existing file or block device: its data is overwritten"),
        BL_OPT_LABEL(&a->labels),
        BL_OPT_STRING(0, "hosts", &a->hosts, "FILE",
                      "run JOBFILE on many hosts through fio's client/server mode:\n"
                      "FILE lists the hosts running 'fio --server', one a line as\n"
                      "fio --client takes them; one run per host plus 'all clients'"),
        BL_OPT_DB(&a->db),
        BL_OPT_STRING(0, "clean", &a->clean, "DIR",
                      "only remove the scratch files in DIR left by killed runs"),
        BL_OPT_STRING(0, "sweep", &a->sweep_spec, "SPEC",
                      "run the jobs (or suite) at every combination of job options'\n"
                      "values: 'iodepth=1,2,4,8 numjobs=1,2 bs=4k,64k'; first key\n"
                      "slowest; records labelled sweep=KEYS and sweep_KEY=VALUE"),
        BL_OPT_FN(0, "sweep-repeats", &a->sweep_repeats, "N",
                  "run the whole matrix N times, round after round (repeats)", repeats_arg),
        BL_OPT_BOOL(0, "json", &a->json,
                    "the result line as JSON Lines (source, status, records, runs);\n"
                    "the lines of each test then go to stderr"),
        BL_OPT_BOOL(0, "help-options", &a->help_options,
                    "list the job file options: type, bounds, values, help"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"run", usage, after, suites_help, 0};
    int n = bl_options(&h, opts, argc, argv, status);
    if (n < 0)
        return -1;
    a->o.allow_overwrite = a->allow_overwrite != 0;
    if (a->help_options) {
        bl_job_opts_help(stdout);
        *status = 0;
        return -1;
    }
    *status = 2;
    if (n > 1)
        return bl_usage_error("run", "one JOBFILE at most, '%s' is extra", argv[1]), -1;
    if (n == 1)
        a->jobfile = argv[0];
    if (a->suite && a->jobfile)
        return bl_usage_error("run", "--suite and JOBFILE exclude each other"), -1;
    if (a->clean) {
        if (!a->jobfile && !a->suite && !a->hosts)
            return 0;
        return bl_usage_error("run", "--clean DIR runs nothing: no JOBFILE, --suite, --hosts"), -1;
    }
    if (a->sweep_repeats && !a->sweep_spec)
        return bl_usage_error("run", "--sweep-repeats needs --sweep"), -1;
    if (a->sweep_spec && a->hosts)
        return bl_usage_error("run", "--sweep runs benchlog's engine, not fio on --hosts"), -1;
    if (a->sweep_spec) {
        char err[512];
        if (bl_sweep_parse(a->sweep_spec, &a->sweep, err, sizeof err) != 0)
            return bl_usage_error("run", "%s", err), -1;
        a->sweep.repeats = a->sweep_repeats ? a->sweep_repeats : 1;
    }
    if (a->hosts && !a->jobfile)
        return bl_usage_error("run", "--hosts needs a JOBFILE for fio to run on the hosts"), -1;
    if (!a->jobfile && !a->suite)
        a->suite = "quick";
    if (a->suite && !bl_suite_find(a->suite))
        return bl_usage_error("run", "no suite '%s' (see benchlog run --help)", a->suite), -1;
    return 0;
}

static int load_jobfile(const char *path, bl_jobs *jobs)
{
    bl_text t;
    char err[512];
    if (bl_text_load(&t, path, err, sizeof err) != 0) {
        fprintf(stderr, "benchlog run: %s: %s\n", path, err);
        return 1;
    }
    bl_diags out;
    bl_diags_init(&out, path);
    int errors = bl_jobfile_parse(&t, jobs, &out);
    bl_diags_print(stderr, &out);
    bl_diags_free(&out);
    bl_text_free(&t);
    return errors ? 1 : 0;
}

/* The run's result on stdout as import says it (say.h): the records stored and their run. */
static int store_records(const run_args *a, const char *source, const bl_records *recs)
{
    if (recs->n == 0)
        return 0;
    bl_store *s = bl_open_store(a->db, 1);
    if (!s) {
        bl_say_result(a->json, source, "refused", 0, "");
        return 1;
    }
    char err[512];
    bl_strbuf ids;
    bl_strbuf_init(&ids);
    int rc = bl_store_import(s, source, NULL, "run", recs, &ids, err, sizeof err);
    bl_store_close(s);
    if (rc == BL_IMPORT_FAILED) {
        fprintf(stderr, "benchlog run: storing the results failed, store unchanged: %s\n", err);
        bl_say_result(a->json, source, "refused", 0, "");
    } else {
        bl_say_result(a->json, source, "stored", recs->n, ids.s);
    }
    bl_strbuf_free(&ids);
    return rc == BL_IMPORT_FAILED ? 1 : 0;
}

/* Many hosts go through fio's client/server mode: fio reads the job file itself. */
static int run_hosts(run_args *a)
{
    char err[512];
    bl_records recs;
    bl_records_init(&recs);
    bl_fio_hosts_opts ho = {.n_labels = a->labels.n, .labels = a->labels.v};
    int hr = bl_run_fio_hosts(a->hosts, a->jobfile, &ho, &recs, err, sizeof err);
    if (hr)
        fprintf(stderr, "benchlog run: %s\n", err);
    int st = hr == 2 ? 2 : store_records(a, a->jobfile, &recs);
    bl_records_free(&recs);
    return hr ? hr : st;
}

static int clean(const char *dir)
{
    char err[512];
    int n = bl_scratch_clean(dir, stderr, err, sizeof err);
    if (n < 0)
        fprintf(stderr, "benchlog run: %s\n", err);
    else
        fprintf(stderr, "benchlog run: %d stale scratch file%s removed from %s\n", n,
                n == 1 ? "" : "s", dir);
    return n < 0 ? 1 : 0;
}

static int run(run_args *a)
{
    if (a->clean)
        return clean(a->clean);
    if (a->hosts)
        return run_hosts(a);
    bl_jobs jobs = {0};
    if (a->jobfile && load_jobfile(a->jobfile, &jobs) != 0) {
        bl_jobs_free(&jobs);
        return 1;
    }
    if (a->sweep_spec) {
        char err[512];
        if (bl_sweep_check(&a->sweep, &jobs, a->suite ? bl_suite_find(a->suite) : NULL, err,
                           sizeof err) != 0) {
            fprintf(stderr, "benchlog run: %s\n", err);
            bl_jobs_free(&jobs);
            return 1;
        }
    }
    /* Check the store opens before spending minutes measuring. */
    bl_store *probe = bl_open_store(a->db, 1);
    if (!probe) {
        bl_jobs_free(&jobs);
        return 1;
    }
    bl_store_close(probe);

    bl_strbuf src;
    bl_strbuf_init(&src);
    if (a->suite)
        bl_strbuf_printf(&src, "benchlog run --suite %s", a->suite);
    else
        bl_strbuf_puts(&src, a->jobfile);
    a->o.source = src.s;
    a->o.suite = a->suite;
    a->o.progress = true;
    a->o.msg = a->json ? stderr : stdout; /* under --json, stdout holds JSON Lines only */
    a->o.quiet = bl_quiet();
    a->o.interrupt = &interrupted;
    a->o.n_labels = a->labels.n;
    a->o.labels = a->labels.v;

    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    bl_records recs;
    bl_records_init(&recs);
    const bl_suite *suite = a->suite ? bl_suite_find(a->suite) : NULL;
    int rc = a->sweep_spec ? bl_run_sweep(&a->sweep, &jobs, suite, &a->o, &recs)
             : suite       ? bl_run_suite(suite, &a->o, &recs)
                           : bl_run_jobs(&jobs, &a->o, &recs);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    fflush(stdout);
    if (rc == BL_RUN_INTERRUPTED)
        fprintf(stderr, "benchlog run: interrupted: %s finished and kept, test file removed\n",
                bl_count(recs.n, "record").s);
    int st = store_records(a, src.s, &recs);
    bl_records_free(&recs);
    bl_strbuf_free(&src);
    bl_jobs_free(&jobs);
    if (rc == BL_RUN_INTERRUPTED)
        return 130;
    return rc == BL_RUN_OK ? st : 1;
}

int cmd_run(int argc, char **argv)
{
    run_args a;
    memset(&a, 0, sizeof a);
    int rc;
    if (read_args(argc, argv, &a, &rc) == 0)
        rc = run(&a);
    bl_labels_free(&a.labels);
    bl_sweep_free(&a.sweep);
    return rc;
}
