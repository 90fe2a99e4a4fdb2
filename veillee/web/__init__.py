"""The FastAPI app: pages (Jinja2), JSON API, websockets, static files, i18n catalogs."""

from veillee.web.app import create_app

__all__ = ["create_app"]
