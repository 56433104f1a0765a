/* CBristleMath is mostly inline functions in its headers; SwiftPM needs one source file per C target.
 * The exact fill's row resolve, compiled on its own, is in CBristleOverBlocks.c. */
#include "CBristleMath.h"
