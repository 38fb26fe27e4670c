#include "jpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

/// libjpeg's error manager plus where to jump back to and the message to hand out.
typedef struct shim_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
} shim_error;

static void shim_error_exit(j_common_ptr cinfo) {
    shim_error *err = (shim_error *)cinfo->err;
    if (err->message) (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

/// Warnings ("premature end of data") are not printed: the caller decides what to say.
static void shim_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void shim_error_init(shim_error *err, char *message) {
    jpeg_std_error(&err->base);
    err->base.error_exit = shim_error_exit;
    err->base.output_message = shim_output_message;
    err->message = message;
    if (message) message[0] = 0;
}

/// Counts scans while a file is read and stops past a limit, as TurboJPEG 3's
/// TJPARAM_SCANLIMIT does: a progressive JPEG may hold thousands of tiny scans, and each one
/// costs a pass over every block of the image however little data it carries.
typedef struct shim_progress {
    struct jpeg_progress_mgr base;
    int max_scans;
} shim_progress;

static void shim_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    shim_progress *progress = (shim_progress *)cinfo->progress;
    if (progress->max_scans > 0 && dinfo->input_scan_number > progress->max_scans) {
        shim_error *err = (shim_error *)cinfo->err;
        if (err->message)
            snprintf(err->message, GEOQR_JPEG_MESSAGE_SIZE, "progressive JPEG of more than %d scans", progress->max_scans);
        longjmp(err->jump, 1);
    }
}

static void set_scale(struct jpeg_decompress_struct *cinfo, int scale_denom) {
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned)(scale_denom > 0 ? scale_denom : 1);
}

/// Output colour space for grey: libjpeg extracts luma itself from YCbCr; CMYK and YCCK come
/// out as CMYK and are converted below.
static int is_four_channel(const struct jpeg_decompress_struct *cinfo) {
    return cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
}

int geoqr_jpeg_read_info(const uint8_t *data, size_t size, int scale_denom,
                         geoqr_jpeg_info *info, char *message) {
    struct jpeg_decompress_struct cinfo;
    shim_error err;
    shim_error_init(&err, message);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    set_scale(&cinfo, scale_denom);
    cinfo.out_color_space = is_four_channel(&cinfo) ? JCS_CMYK : JCS_GRAYSCALE;
    jpeg_calc_output_dimensions(&cinfo);
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    info->components = cinfo.num_components;
    info->color_space = (int)cinfo.jpeg_color_space;
    info->progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    info->output_width = (int)cinfo.output_width;
    info->output_height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

/// One CMYK pixel to grey. Adobe files store inverted ink (255 = none), others plain ink.
static uint8_t cmyk_to_gray(const JSAMPLE *p, int inverted) {
    unsigned c = p[0], m = p[1], y = p[2], k = p[3];
    if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
    unsigned r = c * k / 255, g = m * k / 255, b = y * k / 255;
    return (uint8_t)((r * 77 + g * 150 + b * 29) >> 8);
}

int geoqr_jpeg_decode_gray(const uint8_t *data, size_t size, int scale_denom, int max_scans,
                           uint8_t *out, size_t out_size, char *message) {
    struct jpeg_decompress_struct cinfo;
    shim_error err;
    shim_progress progress;
    JSAMPLE *volatile row = NULL;
    shim_error_init(&err, message);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        free(row);
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    memset(&progress, 0, sizeof progress);
    progress.base.progress_monitor = shim_progress_monitor;
    progress.max_scans = max_scans;
    cinfo.progress = &progress.base;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    set_scale(&cinfo, scale_denom);
    int four = is_four_channel(&cinfo);
    cinfo.out_color_space = four ? JCS_CMYK : JCS_GRAYSCALE;
    // ISLOW, not IFAST: IFAST's rounding moves module edges enough that zbar misses clean
    // codes (a 4-pixel-module qrencode JPEG), and turbo's SIMD makes ISLOW nearly as fast.
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = FALSE;
    jpeg_start_decompress(&cinfo);
    size_t width = cinfo.output_width, height = cinfo.output_height;
    if (width * height > out_size || cinfo.output_components != (four ? 4 : 1)) {
        if (message) snprintf(message, GEOQR_JPEG_MESSAGE_SIZE, "output buffer does not match the image");
        jpeg_destroy_decompress(&cinfo);
        return 2;
    }
    if (four) row = malloc(width * 4);
    int inverted = cinfo.saw_Adobe_marker;
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *dst = out + (size_t)cinfo.output_scanline * width;
        JSAMPROW target = four ? row : dst;
        jpeg_read_scanlines(&cinfo, &target, 1);
        if (four) for (size_t x = 0; x < width; x++) dst[x] = cmyk_to_gray(row + 4 * x, inverted);
    }
    jpeg_finish_decompress(&cinfo);
    free(row);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

typedef struct shim_buffer { unsigned char *data; unsigned long size; } shim_buffer;

int geoqr_jpeg_encode(const uint8_t *pixels, int width, int height, geoqr_jpeg_layout layout,
                      int quality, int progressive, const uint8_t *app1, size_t app1_size,
                      uint8_t **out, size_t *out_size, char *message) {
    struct jpeg_compress_struct cinfo;
    shim_error err;
    shim_buffer buffer = { NULL, 0 };
    shim_error_init(&err, message);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer.data);
        return 1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer.data, &buffer.size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    int components = layout == GEOQR_JPEG_GRAY ? 1 : layout == GEOQR_JPEG_RGB ? 3 : 4;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    if (layout == GEOQR_JPEG_YCCK) jpeg_set_colorspace(&cinfo, JCS_YCCK);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 && app1_size > 0) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, app1, (unsigned)app1_size);
    size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer.data;
    *out_size = buffer.size;
    return 0;
}

void geoqr_jpeg_free(uint8_t *buffer) { free(buffer); }
