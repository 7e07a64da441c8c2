"""The application API: one typed function per user intent. Adapters (CLI, HTTP) call these."""
