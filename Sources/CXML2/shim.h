#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with the copy of ICU inside Foundation
// (_FoundationICU) in any Swift file that imports both. GeoQR never touches the ICU-only
// members of xmlCharEncodingHandler (it is used by pointer only), so the ICU include is skipped.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/parser.h>
