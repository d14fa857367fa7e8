"""One router per area; ``parlour.server.app`` assembles them."""
