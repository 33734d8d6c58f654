"""Template tags of the site's pages (Django finds them here, in the app's templatetags package)."""
