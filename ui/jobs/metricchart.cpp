#include "ui/jobs/metricchart.h"
