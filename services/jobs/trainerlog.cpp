#include "services/jobs/trainerlog.h"
