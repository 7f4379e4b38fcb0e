#include "services/jobs/downsample.h"
