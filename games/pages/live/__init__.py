"""The live table as a web app: pages that follow their stream (``following``) and what makes
them installable and able to load with no network (``webapp``: the manifest, the service worker,
the icons)."""
