// Min/max per pixel column: to be written.
#pragma once
