/* The structural oracle of the SVG and HTML fuzz targets (issue 29), through libxml2: every
 * element is one benchlog (or cairo, for chart files) writes, no attribute is an event
 * handler or points anywhere but inside the document, no coordinate is NaN or infinite. */
#ifndef BL_FUZZ_XML_H
#define BL_FUZZ_XML_H

#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int fx_listed(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcasecmp(name, *list) == 0)
            return 1;
    return 0;
}

/* Aborts on an element not in allowed or an attribute benchlog never writes; counts
 * <script> elements in *scripts. */
static void fx_walk(xmlNode *n, const char *const *allowed, size_t *scripts)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *name = (const char *)n->name;
        if (!fx_listed(name, allowed))
            abort(); /* an element benchlog did not write */
        *scripts += strcasecmp(name, "script") == 0;
        for (xmlAttr *a = n->properties; a; a = a->next) {
            const char *an = (const char *)a->name;
            if (strncasecmp(an, "on", 2) == 0)
                abort(); /* an event handler */
            xmlChar *v = xmlNodeGetContent((xmlNode *)a);
            const char *vs = v ? (const char *)v : "";
            if ((strcasecmp(an, "href") == 0 && vs[0] != '#') || strcasecmp(an, "src") == 0 ||
                strcasecmp(an, "action") == 0 || strcasecmp(an, "formaction") == 0 ||
                strcasecmp(an, "srcdoc") == 0)
                abort(); /* a link out of the document */
            if (fx_listed(an, (const char *const[]){"x", "y", "width", "height", "x1", "x2", "y1",
                                                    "y2", "d", "transform", NULL}) &&
                (strstr(vs, "nan") || strstr(vs, "inf")))
                abort(); /* a figure no device prints reached a coordinate */
            xmlFree(v);
        }
        fx_walk(n->children, allowed, scripts);
    }
}

#endif
