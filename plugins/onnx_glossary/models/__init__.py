"""Example models: .onnx files -> ModelFacts, example.yml, references, the analysed catalog."""
