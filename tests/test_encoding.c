/* Encodings of old pages and Windows exports become UTF-8; same-meaning characters ASCII. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/encoding.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

static char *to(const char *enc, const char *utf8, size_t *n)
{
    iconv_t cd = iconv_open(enc, "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t inl = strlen(utf8), outl = 4 * inl + 8;
    char *buf = calloc(1, outl), *out = buf, *in = (char *)utf8;
    assert_true(iconv(cd, &in, &inl, &out, &outl) != (size_t)-1);
    iconv_close(cd);
    *n = (size_t)(out - buf);
    return buf;
}

static void check(const char *enc, const char *want_enc)
{
    const char *text = "指定しない場合 †\nシーケンシャルリード 641 MB/秒\n";
    size_t n;
    char *bytes = to(enc, text, &n);
    char *out;
    size_t outlen;
    const char *got = bl_to_utf8(bytes, n, &out, &outlen);
    assert_string_equal(got, want_enc);
    assert_string_equal(out, text);
    free(out);
    free(bytes);
}

static void test_japanese(void **state)
{
    (void)state;
    check("CP932", "SHIFT_JIS");
    check("EUC-JP", "EUC-JP");
    check("UTF-8", "UTF-8");
}

static void test_utf16_bom(void **state)
{
    (void)state;
    const char le[] = "\xff\xfe"
                      "S\0e\0q\0 \0"
                      "1\0\r\0\n\0";
    char *out;
    size_t n;
    assert_string_equal(bl_to_utf8(le, sizeof le - 1, &out, &n), "UTF-16LE");
    assert_string_equal(out, "Seq 1\r\n");
    free(out);
    const char be[] = "\xfe\xff\0S\0e\0q";
    assert_string_equal(bl_to_utf8(be, sizeof be - 1, &out, &n), "UTF-16BE");
    assert_string_equal(out, "Seq");
    free(out);
}

/* GNU dd 9.1's real output (fixtures/dd) as UTF-16 without a byte-order mark, both byte
 * orders (what some Windows editors and redirections write): read as the UTF-8 file is, the
 * figures dd printed ("67108864 bytes ... copied, 0.281737 s"). Not "binary data". */
static void test_utf16_without_bom(void **state)
{
    (void)state;
    char fix[256];
    char *utf8 = bl_test_slurp(bl_test_fixture("dd/gnu-dd-9.1_c_write_read.txt", fix, sizeof fix));
    assert_non_null(utf8);
    static const char *const encs[] = {"UTF-16LE", "UTF-16BE"};
    for (int e = 0; e < 2; e++) {
        size_t n;
        char *bytes = to(encs[e], utf8, &n);
        assert_int_equal(bytes[e == 0 ? 1 : 0], 0); /* no BOM: "$" then its NUL, or NUL "$" */
        assert_int_equal(bytes[e == 0 ? 0 : 1], '$');
        assert_string_equal(bl_utf16_without_bom(bytes, n), encs[e]);
        bl_text t;
        char err[256];
        assert_int_equal(bl_text_from_bytes(&t, "dd16.txt", bytes, n, err, sizeof err), 0);
        assert_string_equal(t.encoding, encs[e]);
        bl_parse_opts opts = {.as = "auto"};
        bl_parse_out o;
        bl_out_init(&o, "dd16.txt");
        assert_int_equal(bl_parse_text(&t, &opts, &o), 0);
        assert_int_equal(o.recs.n, 2);
        assert_string_equal(o.recs.v[0]->tool, "dd");
        assert_int_equal(o.recs.v[0]->line, 4);
        assert_int_equal(o.recs.v[0]->io_bytes, 67108864);
        assert_double_equal(o.recs.v[0]->runtime_s, 0.281737, 0);
        assert_double_equal(o.recs.v[0]->bw_bytes_s, 67108864 / 0.281737, 1e-3);
        assert_int_equal(o.recs.v[1]->bs, 65536);
        assert_double_equal(o.recs.v[1]->runtime_s, 0.0146754, 0);
        bl_out_free(&o);
        bl_text_free(&t);
        free(bytes);
    }
    free(utf8);
    /* a binary file with runs of zeros is still binary */
    char zeros[64] = {0};
    assert_null(bl_utf16_without_bom(zeros, sizeof zeros));
}

static void test_normalise(void **state)
{
    (void)state;
    /* NBSP (fr dd), narrow NBSP, ideographic space, full-width digits, colon, period */
    const char in[] = "2147483648\xc2\xa0octets\xe2\x80\xaf|\xe3\x80\x80"
                      "\xef\xbc\x91\xef\xbc\x90\xef\xbc\x8e\xef\xbc\x95\xef\xbc\x9a";
    char *out;
    size_t n;
    bl_to_utf8(in, sizeof in - 1, &out, &n);
    assert_string_equal(out, "2147483648 octets | 10.5:");
    assert_int_equal(n, strlen(out));
    free(out);
}

/* UTF-16 without BOM needs 9 pairs in 10 NUL on one side: the guess may stop early only
 * once neither side can reach that, so with the other pairs first, 10% of them is still
 * UTF-16 and one more is not, in 1000 pairs and in the 32,768 pairs of 64 KiB. */
static void test_utf16_shape_boundary(void **state)
{
    (void)state;
    static const size_t sizes[] = {1000, 32768};
    char *b = malloc(2 * 32768);
    assert_non_null(b);
    for (int be = 0; be < 2; be++)
        for (size_t z = 0; z < 2; z++) {
            size_t pairs = sizes[z], most = pairs - (pairs * 9 + 9) / 10;
            for (int extra = 0; extra < 2; extra++) {
                size_t other = most + (size_t)extra;
                for (size_t i = 0; i < pairs; i++) { /* "ab" pairs, then "a\0" or "\0b" */
                    int shaped = i >= other;
                    b[2 * i] = shaped && be ? 0 : 'a';
                    b[2 * i + 1] = shaped && !be ? 0 : 'b';
                }
                const char *got = bl_utf16_without_bom(b, 2 * pairs);
                if (extra)
                    assert_null(got);
                else
                    assert_string_equal(got, be ? "UTF-16BE" : "UTF-16LE");
            }
        }
    free(b);
    /* ASCII up to a no-break space in the last two bytes: still normalised */
    char *out;
    size_t n;
    assert_string_equal(bl_to_utf8("abc\xc2\xa0", 5, &out, &n), "UTF-8");
    assert_string_equal(out, "abc ");
    assert_int_equal(n, 4);
    free(out);
    assert_string_equal(bl_to_utf8("abc", 3, &out, &n), "UTF-8");
    assert_string_equal(out, "abc");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_japanese),
        cmocka_unit_test(test_utf16_bom),
        cmocka_unit_test(test_utf16_without_bom),
        cmocka_unit_test(test_normalise),
        cmocka_unit_test(test_utf16_shape_boundary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
