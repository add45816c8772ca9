"""The opponent server: the ``wargym-protocol/1`` JSON protocol over HTTP or JSON lines.

* :mod:`.protocol`: :class:`~.protocol.Handler`, the transport-free request handler;
* :mod:`.validation`: limits, field checks and the validation of submitted battles;
* :mod:`.policy`: :class:`~.policy.OnnxOpponent`, the learned opponent (ONNX only);
* :mod:`.http`: the FastAPI app (extra ``[serve]``); :mod:`.stdio`: JSON lines;
* ``schemas/request.json`` and ``schemas/response.json``: the JSON Schemas.

Run ``python -m wargym.server [--model policy.onnx] [--host 127.0.0.1] [--port 8765]`` or
``python -m wargym.server --stdio``; docs/protocol.md describes the messages.
"""

from .protocol import PROTOCOL, Handler
from .validation import ProtocolError

__all__ = ["PROTOCOL", "Handler", "ProtocolError"]
