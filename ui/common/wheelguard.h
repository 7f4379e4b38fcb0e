// One rule for the whole window: the mouse wheel over a spin box or a combo box that does not have the keyboard
// focus scrolls what holds it (a form in a scroll area) instead of changing its value. Scrolling down the launcher
// turned gradient accumulation from 1 to 4 on the way; a value changes only after a click or Tab into its field.
#pragma once

namespace ingot {

// Installs the rule on the application (once; calling it again does nothing). Spin boxes and combo boxes no longer
// take the focus from the wheel (Qt::StrongFocus instead of Qt::WheelFocus), those made before as well.
void installWheelGuard();

}  // namespace ingot
