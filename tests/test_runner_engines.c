/* The engine table: every engine is found by its name and aliases, flags say what the runner
 * must do for it (depth 1, no file, slat), and a job file naming an unknown engine is refused
 * with its line and the list of engines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../runner/engine_ops.h"
#include "../runner/job.h"
#include "support/support.h"
#include <string.h>

static void test_names_and_aliases_find_their_engine(void **state)
{
    (void)state;
    assert_true(bl_engine_count() >= 3);
    for (size_t i = 0; i < bl_engine_count(); i++) {
        const bl_engine_ops *e = bl_engine_at(i);
        assert_non_null(e->run);
        assert_non_null(e->summary);
        assert_ptr_equal(bl_engine_find(e->name), e);
        for (const char *const *a = e->aliases; a && *a; a++)
            assert_ptr_equal(bl_engine_find(*a), e);
        for (size_t k = 0; k < i; k++) /* one name, one engine */
            assert_string_not_equal(bl_engine_at(k)->name, e->name);
    }
    assert_null(bl_engine_at(bl_engine_count()));
    /* fio's psync and pvsync are our sync engine: one I/O at a time. */
    assert_ptr_equal(bl_engine_find("psync"), bl_engine_find("sync"));
    assert_ptr_equal(bl_engine_find("pvsync"), bl_engine_find("sync"));
    assert_null(bl_engine_find("posixaio"));
    assert_null(bl_engine_find(""));
    assert_null(bl_engine_find(NULL));
}

static void test_flags_say_what_the_runner_does(void **state)
{
    (void)state;
    const bl_engine_ops *s = bl_engine_find("sync"), *a = bl_engine_find("libaio"),
                        *n = bl_engine_find("null");
    assert_true(bl_engine_has(s, BL_ENGINE_NO_QUEUE));
    assert_false(bl_engine_has(s, BL_ENGINE_SLAT));
    assert_true(bl_engine_has(a, BL_ENGINE_SLAT));
    assert_false(bl_engine_has(a, BL_ENGINE_NO_QUEUE | BL_ENGINE_NO_IO));
    assert_true(bl_engine_has(n, BL_ENGINE_NO_IO));
    assert_true(bl_engine_has(n, BL_ENGINE_SERVICE_TIME));
    char why[256];
    assert_int_equal(bl_engine_available(s, why, sizeof why), 0);
    assert_string_equal(why, "");
}

static void test_unknown_engine_is_refused_with_the_list(void **state)
{
    (void)state;
    const char *text = "[a]\nrw=read\nioengine=posixaio\n";
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "job.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags out;
    bl_diags_init(&out, "job.fio");
    bl_jobs jobs = {0};
    assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
    assert_int_equal(out.v[0].line, 3);
    assert_non_null(strstr(out.v[0].msg, "'posixaio' is not one of benchlog's engines"));
    for (size_t i = 0; i < bl_engine_count(); i++)
        assert_non_null(strstr(out.v[0].msg, bl_engine_at(i)->name));
    assert_non_null(strstr(out.v[0].msg, "psync"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_aliases_find_their_engine),
        cmocka_unit_test(test_flags_say_what_the_runner_does),
        cmocka_unit_test(test_unknown_engine_is_refused_with_the_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
