"""Events of many tables over MQTT: publish, the organiser's dashboard, the broker's set-up."""
