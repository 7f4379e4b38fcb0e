// A chart of one job metric: to be written.
#pragma once
