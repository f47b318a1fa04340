"""The report floor: HTML, charts, exports."""
