"""Authentication for websockets: the browser's session, or an API token for programs."""

from channels.auth import AuthMiddlewareStack


def SocketAuthMiddlewareStack(inner):
    return AuthMiddlewareStack(inner)
