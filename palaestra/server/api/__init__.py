"""The HTTP edge of the web app: request and response models (``models``), limits on what a
client may send (``edge``)."""
