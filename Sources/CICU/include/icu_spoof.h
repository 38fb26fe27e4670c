// UTS #39 confusable skeletons from the system's ICU (Debian's libicu), loaded with dlopen and
// RTLD_LOCAL. Linked the usual way, libicuuc would enter the process's global symbol scope ahead
// of the copy of ICU inside Swift's Foundation (lib_FoundationICU, ICU 76, its C functions
// renamed swift_*), and Foundation's calls to the few C++ symbols both export unrenamed
// (UCaseMap's constructor and destructor, CollatorSpec's) would bind to ICU 72's: measured with
// LD_DEBUG=bindings. Loaded locally, neither copy sees the other. No ICU type crosses this header
// (Swift's clang importer would meet ICU's headers twice, once through Foundation).
#ifndef GEOQR_ICU_SPOOF_H
#define GEOQR_ICU_SPOOF_H

#include <stddef.h>

/// Whether ICU's spoof checker could be loaded and opened (once, on the first call).
/// On failure, fills message (size GEOQR_ICU_MESSAGE_SIZE) and returns 0.
#define GEOQR_ICU_MESSAGE_SIZE 200
int geoqr_icu_spoof_available(char *message);

/// Writes the UTS #39 skeleton of the UTF-8 text (length bytes) into dest (capacity bytes, no
/// terminator). Returns the skeleton's length in bytes; a length above capacity means dest was
/// too small (call again with that capacity); -1 means ICU is unavailable or refused the text.
int geoqr_icu_skeleton(const char *text, int length, char *dest, int capacity);

#endif
