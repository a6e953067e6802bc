"""The front end: rules files loaded, validated against the schemas, and checked into the model."""
