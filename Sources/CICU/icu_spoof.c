#include "icu_spoof.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unicode/uspoof.h>

// ICU's entry points carry its major version (uspoof_open_72): the names and the library's file
// name are those of the headers this was built with.
#define GEOQR_STR2(x) #x
#define GEOQR_STR(x) GEOQR_STR2(x)

static struct {
    USpoofChecker *(*open)(UErrorCode *);
    void (*set_checks)(USpoofChecker *, int32_t, UErrorCode *);
    int32_t (*skeleton)(const USpoofChecker *, uint32_t, const char *, int32_t, char *, int32_t, UErrorCode *);
    USpoofChecker *checker;
    char message[GEOQR_ICU_MESSAGE_SIZE];
} icu;

static pthread_once_t icu_once = PTHREAD_ONCE_INIT;

static void icu_load(void) {
    const char *file = "libicui18n.so." U_ICU_VERSION_SHORT;
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(icu.message, sizeof icu.message, "%s", dlerror());
        return;
    }
    icu.open = (USpoofChecker *(*)(UErrorCode *))dlsym(library, GEOQR_STR(uspoof_open));
    icu.set_checks = (void (*)(USpoofChecker *, int32_t, UErrorCode *))dlsym(library, GEOQR_STR(uspoof_setChecks));
    icu.skeleton = (int32_t (*)(const USpoofChecker *, uint32_t, const char *, int32_t, char *, int32_t, UErrorCode *))
        dlsym(library, GEOQR_STR(uspoof_getSkeletonUTF8));
    if (!icu.open || !icu.set_checks || !icu.skeleton) {
        snprintf(icu.message, sizeof icu.message, "%s has no uspoof functions", file);
        return;
    }
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *checker = icu.open(&status);
    if (U_SUCCESS(status)) icu.set_checks(checker, USPOOF_CONFUSABLE, &status);
    if (U_FAILURE(status)) {
        snprintf(icu.message, sizeof icu.message, "ICU's spoof checker did not open (error %d)", (int)status);
        return;
    }
    // Only read from now on: ICU's skeleton calls on one checker are safe from many threads.
    icu.checker = checker;
}

int geoqr_icu_spoof_available(char *message) {
    pthread_once(&icu_once, icu_load);
    if (icu.checker) return 1;
    if (message) snprintf(message, GEOQR_ICU_MESSAGE_SIZE, "%s", icu.message);
    return 0;
}

int geoqr_icu_skeleton(const char *text, int length, char *dest, int capacity) {
    if (!geoqr_icu_spoof_available(NULL)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = icu.skeleton(icu.checker, 0, text, length, dest, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return n;
    if (U_FAILURE(status)) return -1;
    return n;
}
