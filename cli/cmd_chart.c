/* benchlog chart: a PNG, SVG or PDF chart of the stored records matching FILTER. */
#include "../charts/chart.h"
#include "../report/load.h"
#include "args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_help(void)
{
    fputs("Usage: benchlog chart [--db FILE] [--kind KIND] [--by LABEL] [--series NAME]\n"
          "                      [--title TEXT] [--log] [--width N] [--height N]\n"
          "                      -o FILE.png|FILE.svg|FILE.pdf [FILTER...]\n\n"
          "Draws a chart of the stored records matching FILTER, as PNG, or as SVG or PDF\n"
          "(vector, text kept as text) by the extension of -o. KIND is one of:\n",
          stdout);
    for (int k = 0; k < BL_CHART_N_KINDS; k++)
        printf("  %-12s %s\n", bl_chart_kind_name(k), bl_chart_kind_help(k));
    fputs("\n  --db FILE      store (default $BENCHLOG_DB or ./benchlog.db)\n"
          "  --kind KIND    chart kind (default bar)\n"
          "  --by LABEL     bar: columns by this label; others: name curves by it\n"
          "  --series NAME  timeline: bw, iops, lat, clat or slat (default: the first found)\n"
          "  --title TEXT   title (default: kind and the labels the records share)\n"
          "  --log          bar: logarithmic axis, for figures that span decades\n"
          "  --width N      image width in pixels (default 1600; PDF: half a point each)\n"
          "  --height N     image height in pixels (default 900)\n"
          "  -o FILE        the chart to write: FILE.png, FILE.svg or FILE.pdf (required)\n\n"
          "At most 10 curves or bar colours are drawn; narrow with FILTER.\n"
          "Example: benchlog chart --kind percentiles -o lat.svg tool=fio test=rand-read\n",
          stdout);
}

static int size_arg(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v <= 0 || v > 100000)
        return -1;
    *out = (int)v;
    return 0;
}

int cmd_chart(int argc, char **argv)
{
    static const struct option opts[] = {{"db", required_argument, 0, 'd'},
                                         {"kind", required_argument, 0, 'k'},
                                         {"by", required_argument, 0, 'b'},
                                         {"series", required_argument, 0, 's'},
                                         {"title", required_argument, 0, 'T'},
                                         {"width", required_argument, 0, 'W'},
                                         {"height", required_argument, 0, 'H'},
                                         {"output", required_argument, 0, 'o'},
                                         {"log", no_argument, 0, 'L'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *db = NULL, *out = NULL;
    bl_chart_opts co = {0};
    optind = 0;
    opterr = 0;
    int c, k;
    while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            db = optarg;
            break;
        case 'k':
            if ((k = bl_chart_kind_from_name(optarg)) < 0)
                return bl_usage_error("chart", "unknown kind '%s'", optarg);
            co.kind = (bl_chart_kind)k;
            break;
        case 'b':
            co.by = optarg;
            break;
        case 's':
            co.series = optarg;
            break;
        case 'T':
            co.title = optarg;
            break;
        case 'W':
        case 'H':
            if (size_arg(optarg, c == 'W' ? &co.width : &co.height) != 0)
                return bl_usage_error("chart", "%s wants a number of pixels, not '%s'",
                                      c == 'W' ? "--width" : "--height", optarg);
            break;
        case 'o':
            out = optarg;
            break;
        case 'L':
            co.log = 1;
            break;
        case 'h':
            print_help();
            return 0;
        default:
            return bl_usage_error("chart", "unknown option or missing value: '%s'",
                                  argv[optind - 1]);
        }
    }
    if (!out)
        return bl_usage_error("chart", "-o FILE.png is required (or FILE.svg, FILE.pdf)");
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    int rc = bl_report_load(db, argc - optind, argv + optind, &recs, err, sizeof err);
    if (rc == 0) {
        rc = bl_chart_file(out, &recs, &co, err, sizeof err);
        bl_chart_cleanup();
    }
    if (rc == 2)
        rc = bl_usage_error("chart", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog chart: %s\n", err);
    bl_records_free(&recs);
    return rc;
}
