"""The browser runtime: onnxruntime-web's files and limits, pinned npm packages, static assets, CSP."""
