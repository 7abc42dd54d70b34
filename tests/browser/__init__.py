"""The browser suite: JupyterLab and the reports in headless Chromium (see README.md)."""
