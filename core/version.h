#ifndef BL_VERSION_H
#define BL_VERSION_H
#define BENCHLOG_VERSION "0.1.0"
#endif
