"""Routes of this area (filled in by its issue)."""

from fastapi import APIRouter

router = APIRouter()
