// libjpeg reports fatal errors by calling error_exit, which must not return into the library.
// Swift cannot setjmp, so these functions own the whole life of a libjpeg (de)compressor: each
// creates it, arms setjmp, does its work and destroys it before returning. No libjpeg pointer
// crosses this boundary; errors come back as a non-zero status and a message.
#ifndef GEOQR_JPEG_SHIM_H
#define GEOQR_JPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#define GEOQR_JPEG_MESSAGE_SIZE 200

/// What the header says, and the size of the grey image a decode at 1/scale_denom gives.
typedef struct geoqr_jpeg_info {
    int width, height;              // full size, as stored
    int components;                 // 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK
    int color_space;                // libjpeg's J_COLOR_SPACE of the file
    int progressive;                // 1 for progressive (multi-scan) files
    int output_width, output_height;// at the requested scale
} geoqr_jpeg_info;

/// Colour layouts the encoder writes (tests make fixtures with them).
typedef enum geoqr_jpeg_layout {
    GEOQR_JPEG_GRAY = 0,            // one byte a pixel
    GEOQR_JPEG_CMYK = 1,            // four bytes a pixel, Adobe (inverted) CMYK
    GEOQR_JPEG_YCCK = 2,            // four bytes a pixel in, stored as YCCK
    GEOQR_JPEG_RGB = 3              // three bytes a pixel, stored as YCbCr
} geoqr_jpeg_layout;

/// Reads the header. Returns 0 on success, else fills message.
int geoqr_jpeg_read_info(const uint8_t *data, size_t size, int scale_denom,
                         geoqr_jpeg_info *info, char *message);

/// Decodes to 8-bit grey at 1/scale_denom (1, 2, 4 or 8) into out, which must hold
/// output_width * output_height bytes as geoqr_jpeg_read_info reported. CMYK and YCCK files
/// are converted to grey through RGB. A file of more than max_scans scans (when max_scans > 0)
/// is refused while it is read. Returns 0 on success, else fills message.
int geoqr_jpeg_decode_gray(const uint8_t *data, size_t size, int scale_denom, int max_scans,
                           uint8_t *out, size_t out_size, char *message);

/// Encodes pixels in the given layout. On success returns 0 and a malloc'd buffer in *out
/// (free it with geoqr_jpeg_free), with app1 (may be NULL) written as an APP1 segment.
int geoqr_jpeg_encode(const uint8_t *pixels, int width, int height, geoqr_jpeg_layout layout,
                      int quality, int progressive, const uint8_t *app1, size_t app1_size,
                      uint8_t **out, size_t *out_size, char *message);

/// Frees a buffer geoqr_jpeg_encode returned.
void geoqr_jpeg_free(uint8_t *buffer);

#endif
