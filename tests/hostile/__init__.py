"""The standing hostile-input run: every registered file loader and every web route, fed
hostile input (deep nesting, many values, huge sizes, bad bytes, devices, folders, bombs),
must refuse it in one line (exit 2, a 4xx), with no traceback and bounded memory."""
