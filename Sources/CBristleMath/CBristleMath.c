/* CBristleMath is header-only (inline functions); SwiftPM needs one source file per C target. */
#include "CBristleMath.h"
