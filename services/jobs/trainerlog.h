// Hugging Face Trainer logs (user scripts): to be written.
#pragma once
